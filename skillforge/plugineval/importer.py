"""`skillforge import plugin-eval PATH`: a `claude plugin eval` result into the run store.

One aggregate-result.json becomes one run (engine `import`, label "claude plugin eval
<plugin>"): every case's runs of arm `with` and `without` become with_skill and baseline
trials (skillforge.plugineval.trial), each run's stream-json trace (kept by
`claude plugin eval --keep-temp`) is converted by the Claude Code importer to an ATIF
trajectory and stored. So `skillforge report`, the lift, triage and the workbench's
side-by-side view show a plugin-eval run like any other. A run whose trace is gone still
imports (grade, cost, status) and is counted in `traces_missing`.

The target skill (what skill_execution looks for) is `--skill`, else the plugin's only
skill (skills/<name>/SKILL.md under the plugin's path, else the only `<plugin>:<skill>` a
with-arm trace lists), else the plugin's name; a case's
`tool_used: Skill` grader with `input_match` names its own. Importing the same result
again replaces the run's trials.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from sessions.store import RunStore
from skillforge.models.trial import RunRecord, RunSpec, TrialRecord
from skillforge.plugineval.results import (
    ARMS,
    AggregateResult,
    PluginEvalFileError,
    load_results,
    result_file,
)
from skillforge.plugineval.trial import (
    TRACE_GONE,
    BuiltTrial,
    build_trial,
    case_of,
    plugin_skills_dirs,
)

PluginEvalImportError = PluginEvalFileError


class CaseSummary(BaseModel):
    """One case as claude plugin eval scored it (its own aggregates), for the side-by-side
    with skillforge's lift."""

    case_id: str
    runs: dict[str, int]
    score_with: float | None = None
    score_without: float | None = None
    delta: float | None = None


class PluginEvalImport(BaseModel):
    source: str
    run_id: str
    replaced: bool
    plugin: str
    plugin_version: str | None = None
    skill: str
    claude_version: str | None = None
    ablation: str | None = None
    trials: int
    statuses: dict[str, int]
    graded_trials: int
    traces: int
    traces_missing: int
    cost_usd: float | None = None
    mean_delta: float | None = None
    cases: list[CaseSummary] = Field(default_factory=list)
    notes: dict[str, int] = Field(default_factory=dict)  # note -> trials it applies to
    # Graders decided by both tools on the same trace (skillforge.plugineval.trial.agreement).
    graders_compared: int = 0
    graders_undecided: int = 0
    disagreements: list[dict[str, Any]] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


def run_id_for(result: AggregateResult, source: Path) -> str:
    """Stable per result: the same aggregate-result.json imports into the same run."""
    stamp = result.started_at or datetime.fromtimestamp(source.stat().st_mtime, UTC)
    key = f"{result.suite.root}|{stamp.isoformat()}|{result.plugin.name if result.plugin else ''}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:6]
    return f"plugin-eval-{stamp.astimezone(UTC):%Y%m%dT%H%M%S}-{digest}"


def _listed_skills(result: AggregateResult, base: Path, plugin: str) -> set[str]:
    """The plugin's skills as a with-arm trace's `init` event lists them (`plugin:skill`)."""
    for case in result.cases:
        for run in case.arms.get("with", []):
            path = Path(run.trace_path or "")
            path = path if path.is_absolute() else base / path
            try:
                with path.open("rb") as fh:
                    init = json.loads(fh.readline())
            except (OSError, ValueError):
                continue
            if isinstance(init, dict) and init.get("subtype") == "init":
                return {s.split(":", 1)[1] for s in init.get("skills") or []
                        if isinstance(s, str) and s.startswith(f"{plugin}:")}
    return set()


def target_skill_of(result: AggregateResult, base: Path) -> str:
    """The plugin's only skill (on disk, else as its traces list it), else its name."""
    plugin = result.plugin
    if plugin is None:
        return "plugin"
    if plugin.path:
        skills = sorted(p.parent.name for p in Path(plugin.path).glob("skills/*/SKILL.md"))
        if len(skills) == 1:
            return skills[0]
    listed = _listed_skills(result, base, plugin.name)
    return listed.pop() if len(listed) == 1 else plugin.name


def _warnings(result: AggregateResult) -> list[str]:
    out = []
    if result.partial:
        out.append("the result is partial: claude plugin eval stopped at its cost ceiling "
                   "(--max-cost-usd); runs it did not start are missing")
    if result.suite.ablation != "with-without":
        out.append(f"ablation {result.suite.ablation!r}: there is no without-plugin arm, so "
                   "the run has no baseline and no lift (run claude plugin eval with "
                   "--ablation with-without)")
    for plugin in result.suite.plugins:
        if plugin.problem:
            out.append(f"plugin {plugin.name}: claude plugin eval reported {plugin.problem!r}")
    if not result.suite.plugins:
        out.append("no plugin resolved: the with arm ran without a plugin")
    return out


def import_plugin_eval(path: Path | str, store: RunStore, *,
                       skill: str | None = None) -> PluginEvalImport:
    """Import one `claude plugin eval` result; PluginEvalFileError when it cannot be read."""
    source = result_file(Path(path))
    result = load_results(source)
    if not result.cases:
        raise PluginEvalFileError(f"{source}: holds no case")
    plugin = result.plugin
    target = skill or target_skill_of(result, source.parent)
    run_id = run_id_for(result, source)
    dirs = plugin_skills_dirs(plugin.path if plugin else None)
    cases = {c.name: case_of(c, target) for c in result.cases}
    attempts = max((len(runs) for c in result.cases for runs in c.arms.values()), default=1)
    conditions = [ARMS[a] for a in ARMS if any(a in c.arms for c in result.cases)]
    spec = RunSpec(skill_path=(plugin.path if plugin and plugin.path else
                               result.suite.root or str(source.parent)),
                   case_ids=list(cases), conditions=conditions or ["with_skill"],
                   attempts=max(1, attempts), agent="claude-code", model=None,
                   sandbox="local",
                   concurrency=result.suite.concurrency or 1,
                   pass_threshold=result.suite.threshold, judge=False)
    built: list[BuiltTrial] = []
    notes: Counter[str] = Counter()
    for case in result.cases:
        for arm, runs in case.arms.items():
            condition = ARMS.get(arm)
            if condition is None:
                notes[f"arm {arm!r} is not with/without: left out"] += len(runs)
                continue
            built += [build_trial(run, run_id=run_id, case=cases[case.name],
                                  condition=condition, attempt=attempt, target_skill=target,
                                  skills_dirs=dirs, specs=case.graders,
                                  trace_base=source.parent)
                      for attempt, run in enumerate(runs, start=1)]
    models = Counter(b.trajectory.agent.model_name for b in built
                     if b.trajectory is not None and b.trajectory.agent.model_name)
    if models:
        spec.model = models.most_common(1)[0][0]
    existing = store.run(run_id)
    if existing is None:
        name = plugin.name if plugin else "(no plugin)"
        store.create_run(RunRecord(
            run_id=run_id, created_at=result.started_at or datetime.now(UTC),
            skill_name=target, skill_path=spec.skill_path, engine="import", status="running",
            spec=spec, label=f"claude plugin eval {name} (Claude Code "
                             f"{result.claude_version or '?'})"))
    records: list[TrialRecord] = []
    traces = missing = 0
    for one in built:
        if one.trajectory is not None:
            traces += 1
        elif TRACE_GONE in one.notes:
            missing += 1
        records.append(one.save(store, notes))
    store.finish_run(run_id, "finished")
    rows = [{"case_id": b.record.case_id, "condition": b.record.condition,
             "attempt": b.record.attempt, **row} for b in built for row in b.agreement]
    decided = [r for r in rows if r["skillforge"] is not None]
    summaries = [CaseSummary(case_id=c.name, runs={a: len(r) for a, r in c.arms.items()},
                             score_with=c.aggregates.get("score"),
                             score_without=c.aggregates.get("scoreWithout"),
                             delta=c.aggregates.get("delta")) for c in result.cases]
    return PluginEvalImport(
        source=str(source), run_id=run_id, replaced=existing is not None,
        plugin=plugin.name if plugin else "", plugin_version=plugin.version if plugin else None,
        skill=target, claude_version=result.claude_version, ablation=result.suite.ablation,
        trials=len(records), statuses=dict(Counter(r.status for r in records)),
        graded_trials=sum(1 for r in records if r.grader is not None), traces=traces,
        traces_missing=missing, cost_usd=result.cost_usd,
        mean_delta=result.aggregates.get("meanDelta"), cases=summaries, notes=dict(notes),
        warnings=_warnings(result), graders_compared=len(decided),
        graders_undecided=len(rows) - len(decided),
        disagreements=[r for r in decided if r["skillforge"] != r["plugin_eval"]])
