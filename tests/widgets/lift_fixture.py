"""A stored paired run for the Lift and Compare widgets: a RunStore filled like a real run.

Eight cases of the csv-insights skill, three attempts per side, every trial with its metric
evidence (judge quotes with step ids, deterministic checks) and a small ATIF trajectory in
which the agent really does what its scores say: with the skill it reads SKILL.md and runs
`scripts/summarize.py`; in the baseline it writes pandas by hand. Planted facts the tests
rely on:

- every lift row is inconclusive at 8 cases (overall +0.159), and how the skill was used is
  apart: the agent used it in 7 of 8 cases (q4 never opens it); skill_efficiency is lower
  with the skill in every case (routing and turns), which is use, not a lift;
- `pivot-by-region` is the worst negative case, class `misused`: the skill is opened at
  step 3, its script fails at step 4 (`--pivot` is not an option), the answer is partial;
- `q4-top-region` is `never_discovered`: the skill is never opened;
- with-skill trajectories are longer than baseline ones, so the aligned view has blanks;
- every attempt's final answer differs a little (attempt numbers in the text).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sessions.atif import Agent, Observation, ObservationResult, Step, ToolCall, Trajectory
from sessions.store import MetricEvidence, RunStore
from skillforge.lift.compute import lift_for_run
from skillforge.models.lift import LiftReport
from skillforge.models.trial import DEFAULT_METRICS, RunRecord, RunSpec, TrialRecord

RUN_ID = "20261120T100302-a1b2c3"
OTHER_RUN_ID = "20261121T091500-d4e5f6"
SKILL = "csv-insights"
MODEL = "gpt-4.1-mini"
JUDGE = "judge-model"
W, B = "with_skill", "baseline"
ATTEMPTS = 3
WORST = "pivot-by-region"

# case: (kind, task, with levels, base levels, activated)
# levels: accuracy, goal_accuracy, behavior_check, security, skill_execution, skill_efficiency
CASES: dict[str, tuple[str, str, tuple, tuple, bool]] = {
    "monthly-revenue": ("explicit", "Report revenue by month from sales.csv.",
                        (0.9, 1.0, 0.9, 1.0, 1.0, 0.6), (0.6, 0.5, 0.4, 1.0, 0.0, 0.72), True),
    "missing-values": ("implicit", "How many rows of orders.csv lack a region?",
                       (0.85, 1.0, 0.8, 1.0, 1.0, 0.55), (0.5, 0.5, 0.5, 1.0, 0.0, 0.7), True),
    "dedupe-customers": ("implicit", "Remove duplicate customers from customers.csv.",
                         (0.85, 1.0, 0.85, 1.0, 1.0, 0.6), (0.55, 0.5, 0.5, 1.0, 0.0, 0.75),
                         True),
    "top-products": ("explicit", "List the five best-selling products in sales.csv.",
                     (0.9, 1.0, 0.95, 1.0, 1.0, 0.65), (0.65, 0.5, 0.5, 1.0, 0.0, 0.8), True),
    "currency-mix": ("implicit", "Total revenue in EUR; some rows are in USD.",
                     (0.8, 1.0, 0.8, 1.0, 1.0, 0.6), (0.6, 0.5, 0.6, 1.0, 0.0, 0.72), True),
    WORST: ("explicit", "Pivot sales.csv by region and quarter; save /workspace/pivot.md.",
            (0.3, 0.0, 0.35, 1.0, 0.67, 0.5), (0.75, 1.0, 0.75, 1.0, 0.0, 0.7), True),
    "q4-top-region": ("contextual", "Our Q4 deck needs the region with the highest revenue.",
                      (0.5, 0.5, 0.4, 1.0, 0.0, 0.6), (0.7, 1.0, 0.6, 1.0, 0.0, 0.7), False),
    "date-formats": ("implicit", "Normalise the dates in events.csv to ISO 8601.",
                     (0.75, 1.0, 0.7, 1.0, 1.0, 0.55), (0.7, 1.0, 0.6, 0.75, 0.0, 0.68), True),
}
# Small fixed per-attempt offsets (no randomness: snapshots must not move).
JITTER = (0.0, 0.02, -0.02)
CONTINUOUS = ("accuracy", "behavior_check", "skill_efficiency")


def _metrics(levels: tuple, attempt: int) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for name, level in zip(DEFAULT_METRICS, levels, strict=True):
        jitter = JITTER[attempt % len(JITTER)] if name in CONTINUOUS else 0.0
        out[name] = round(min(1.0, max(0.0, level + jitter)), 3)
    return out


# --- trajectories ----------------------------------------------------------------------------

def _call(step_id: int, sid: str, fn: str, args: dict, out: str, code: int = 0,
          text: str = "") -> Step:
    return Step(step_id=step_id, source="agent", model_name=MODEL, message=text,
                tool_calls=[ToolCall(tool_call_id=sid, function_name=fn, arguments=args)],
                observation=Observation(results=[ObservationResult(
                    source_call_id=sid, content=out, extra={"exit_code": code})]))


def _answer(case: str, side: str, attempt: int) -> str:
    n = attempt + 1
    if case == WORST:
        return (f"The script does not pivot, so I wrote a partial table (attempt {n})."
                if side == W else
                f"Saved the pivot to /workspace/pivot.md: East 1204.10 / 2210.90, "
                f"West 2209.50 / 2033.40 (attempt {n}).")
    if case == "q4-top-region":
        return "The top region is East." if side == W else f"East had the highest Q4 revenue: 2210.90 (run {n})."
    return (f"Done for {case}: the summary is in /workspace/{case}.md, "
            f"checked with the skill's script (attempt {n}).") if side == W else \
        f"Done for {case}: I computed it with pandas and wrote /workspace/{case}.md (attempt {n})."


def trajectory(case: str, side: str, attempt: int) -> Trajectory:
    """The ATIF trajectory of one trial (see the module docstring for what it shows)."""
    _, task, _, _, activated = CASES[case]
    system = ("You are a careful data analyst. Skills: csv-insights "
              "(/skills/csv-insights/SKILL.md)." if side == W else
              "You are a careful data analyst.")
    steps = [Step(step_id=1, source="system", message=system),
             Step(step_id=2, source="user", message=task)]
    sid = 3
    if side == W and activated:
        steps.append(_call(sid, "c1", "read_file", {"path": f"/skills/{SKILL}/SKILL.md"},
                           "# csv-insights\nRun scripts/summarize.py --group-by COL --sum COL",
                           text="I'll read the skill first."))
        sid += 1
        if case == WORST:
            steps.append(_call(sid, "c2", "bash", {
                "command": f"python /skills/{SKILL}/scripts/summarize.py sales.csv "
                           "--pivot region,quarter"},
                "summarize.py: error: unrecognized arguments: --pivot region,quarter", 2))
        else:
            steps.append(_call(sid, "c2", "bash", {
                "command": f"python /skills/{SKILL}/scripts/summarize.py data.csv --by month"},
                "month,revenue\nJan,1200\nFeb,950\nMar,1410"))
        sid += 1
    elif side == W:
        steps.append(_call(sid, "c1", "bash", {"command": "head -3 orders.csv"},
                           "order_id,region,order_date,revenue\n1,East,2024-10-02,120.5"))
        sid += 1
    else:
        steps.append(_call(sid, "c1", "bash", {
            "command": "python -c \"import pandas as pd; print(pd.read_csv('data.csv')"
                       ".describe())\""}, "count 120\nmean 1190.2"))
        sid += 1
    if attempt == 1 and side == W:
        steps.append(_call(sid, "c3", "bash", {"command": "ls /workspace"}, "data.csv"))
        sid += 1
    steps.append(_call(sid, "c9", "write_file", {"path": f"/workspace/{case}.md",
                                                 "content": "| region |"}, "wrote 10 bytes"))
    sid += 1
    steps.append(Step(step_id=sid, source="agent", model_name=MODEL,
                      message=_answer(case, side, attempt)))
    return Trajectory(session_id=f"{case}-{side}-{attempt}",
                      agent=Agent(name="skillforge-builtin", version="0.1.0", model_name=MODEL),
                      steps=steps,
                      extra={"case_id": case, "condition": side, "attempt": attempt,
                             "run_id": RUN_ID})


def evidence(case: str, side: str, traj: Trajectory,
             metrics: dict[str, float | None]) -> dict[str, MetricEvidence]:
    """Judge-shaped and check-shaped evidence that cites real steps of `traj`."""
    last = traj.steps[-1]
    acts = [s.step_id for s in traj.steps
            if any("SKILL.md" in str(c.arguments) for c in s.tool_calls or [])]
    runs = [s.step_id for s in traj.steps
            if any("scripts/" in str(c.arguments) for c in s.tool_calls or [])]
    first_call = next(s for s in traj.steps if s.tool_calls)
    acc_step = runs[0] if runs else first_call.step_id
    judge = lambda **fields: MetricEvidence(evidence=fields, judge_model=JUDGE,
                                            rubric_version="trial-v1")
    failing = next((s for s in traj.steps if s.step_id in runs), first_call)
    accuracy_quote = (failing.observation.results[0].content if case == WORST and side == W
                      else last.text)
    return {
        "accuracy": judge(spread=None, judges={JUDGE: {
            "score": round(10 * (metrics["accuracy"] or 0)), "value": metrics["accuracy"],
            "rationale": "compared with the ground truth",
            "evidence": [{"step_id": acc_step if case == WORST and side == W else last.step_id,
                          "quote": str(accuracy_quote)[:80]}]}}),
        "goal_accuracy": judge(spread=None, judges={JUDGE: {
            "verdict": "met" if metrics["goal_accuracy"] == 1 else "not_met",
            "value": metrics["goal_accuracy"], "rationale": "the final answer",
            "evidence": [{"step_id": last.step_id, "quote": last.text[:60]}]}}),
        "behavior_check": judge(spread=None, assertions=[{
            "index": 1, "assertion": "Reads SKILL.md before running any script",
            "answers": {JUDGE: {"answer": "yes" if acts else "no",
                                "step_id": acts[0] if acts else None,
                                "quote": "read_file /skills/csv-insights/SKILL.md" if acts
                                else ""}},
            "unanimous": True}]),
        "skill_execution": MetricEvidence(evidence={"checks": [{
            "check": "expected skill activated", "holds": bool(acts) and side == W,
            "why": (f"activated at step {acts[0]} (read)" if acts else
                    "baseline: the target skill is withheld" if side == B else
                    "no activation evidence for csv-insights")}]}),
        "skill_efficiency": MetricEvidence(evidence={"productive_calls": {
            "errors": [{"step_id": s, "tool": "bash", "why": "exit 2"} for s in runs
                       if case == WORST and side == W]}}),
        "security": MetricEvidence(evidence={"findings": []}),
    }


# --- the store -----------------------------------------------------------------------------

def fixture_trials(run_id: str = RUN_ID) -> list[TrialRecord]:
    """The run's 48 trial records (8 cases x 2 sides x 3 attempts), without trajectories."""
    out = []
    for case, (kind, _, w_levels, b_levels, activated) in CASES.items():
        for side, levels in ((W, w_levels), (B, b_levels)):
            for attempt in range(ATTEMPTS):
                metrics = _metrics(levels, attempt)
                with_side = side == W
                turns = (5 if with_side else 4) + attempt % 2
                runs = 1 if with_side and activated else 0
                out.append(TrialRecord(
                    run_id=run_id, case_id=case, condition=side, attempt=attempt,
                    metrics=metrics, grader=1.0 if metrics["goal_accuracy"] == 1 else 0.0,
                    case_kind=kind, activated=activated if with_side else None,
                    tokens_in=9000 + 500 * attempt if with_side else 15000 + 400 * attempt,
                    tokens_out=900, turns=turns, tool_calls=turns - 1,
                    wall_s=20.0 + 5 * attempt + (0 if with_side else 12),
                    cost_usd=0.02 if with_side else 0.035, script_runs=runs,
                    script_runs_ok=0 if case == WORST else runs,
                    started_at=datetime(2026, 11, 20, 10, 3, tzinfo=UTC),
                    finished_at=datetime(2026, 11, 20, 10, 4, tzinfo=UTC)))
    return out


def run_record(run_id: str = RUN_ID, day: int = 20) -> RunRecord:
    return RunRecord(run_id=run_id, created_at=datetime(2026, 11, day, 10, 3, 2, tzinfo=UTC),
                     skill_name=SKILL, skill_path=f"skills/{SKILL}", engine="local",
                     status="finished",
                     spec=RunSpec(skill_path=f"skills/{SKILL}", case_ids=list(CASES),
                                  attempts=ATTEMPTS, model=MODEL))


def build_store(state_dir: Path, *, second_run: bool = False) -> RunStore:
    """A RunStore at `state_dir` holding the fixture run (and a copy of it as a second run,
    one day later, whose with-skill accuracy is 0.05 better in every attempt)."""
    store = RunStore(state_dir)
    runs = [(RUN_ID, 20)] + ([(OTHER_RUN_ID, 21)] if second_run else [])
    for run_id, day in runs:
        store.create_run(run_record(run_id, day))
        for t in fixture_trials(run_id):
            if run_id == OTHER_RUN_ID and t.condition == W:
                acc = t.metrics["accuracy"] or 0.0
                t.metrics["accuracy"] = round(min(1.0, acc + 0.05), 3)
            traj = trajectory(t.case_id, t.condition, t.attempt)
            path = store.save_trajectory(traj, run_id=run_id, case_id=t.case_id,
                                         condition=t.condition, attempt=t.attempt)
            t.trajectory_path = str(path.relative_to(store.state_dir))
            store.upsert_trial(t, evidence(t.case_id, t.condition, traj, t.metrics))
        store.finish_run(run_id)
    return store


def fixture_report(store: RunStore, run_id: str = RUN_ID) -> LiftReport:
    """The lift report of a stored fixture run, computed the way the app computes it."""
    run = store.run(run_id)
    assert run is not None
    return lift_for_run(run, store.trials(run_id))


# --- apps that mount the widgets (Pilot and snapshot tests) ----------------------------------

from textual.app import App, ComposeResult

from skillforge.trajectory.compare_data import load_case_attempts
from widgets.compare_view import CompareView
from widgets.lift_view import CompareRequested, LiftView
from widgets.run_picker import RunPicker

SIZE = (100, 30)


class Recorder:
    """Every message the app dispatches (`run_test(message_hook=...)`), searchable by type."""

    def __init__(self) -> None:
        self.messages: list = []

    def __call__(self, message) -> None:
        self.messages.append(message)

    def of(self, kind: type) -> list:
        """Messages of one type, each once (a bubbling message is dispatched at every level)."""
        unique = {id(m): m for m in self.messages if isinstance(m, kind)}
        return list(unique.values())


class LiftApp(App[None]):
    """A LiftView on one report; Enter on a case swaps in the CompareView, loaded from the
    store the way the workbench is meant to (load_case_attempts, then show_case)."""

    def __init__(self, store: RunStore, report: LiftReport) -> None:
        super().__init__()
        self.store = store
        self.report = report

    def compose(self) -> ComposeResult:
        yield LiftView()
        yield CompareView()

    @property
    def lift(self) -> LiftView:
        return self.query_one(LiftView)

    @property
    def compare(self) -> CompareView:
        return self.query_one(CompareView)

    def on_mount(self) -> None:
        self.compare.display = False
        self.lift.show(self.report)

    def on_compare_requested(self, message: CompareRequested) -> None:
        case = load_case_attempts(self.store, message.run_id or self.report.run_id,
                                  message.case_id)
        self.lift.display = False
        self.compare.display = True
        self.compare.show_case(case, self.report)
        self.compare.query_one("#compare-evidence").focus()


class CompareApp(App[None]):
    """A CompareView alone, showing one stored case."""

    def __init__(self, store: RunStore, case_id: str, report: LiftReport | None = None) -> None:
        super().__init__()
        self.store = store
        self.case_id = case_id
        self.report = report

    def compose(self) -> ComposeResult:
        yield CompareView()

    @property
    def view(self) -> CompareView:
        return self.query_one(CompareView)

    def on_mount(self) -> None:
        self.view.show_case(load_case_attempts(self.store, RUN_ID, self.case_id), self.report)


class PickerApp(App[None]):
    def __init__(self, store: RunStore) -> None:
        super().__init__()
        self.store = store

    def compose(self) -> ComposeResult:
        yield RunPicker()

    def on_mount(self) -> None:
        runs = self.store.runs()
        picker = self.query_one(RunPicker)
        picker.set_runs(runs, {r.run_id: len(self.store.trials(r.run_id)) for r in runs})
        picker.focus()
