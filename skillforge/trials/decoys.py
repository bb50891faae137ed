"""Routing stress (ACES): decoy skills beside the target, and a sweep over how many.

A decoy is another skill the agent sees in BOTH conditions (workspace policy `group`); only
the target differs between with_skill and baseline. More decoys make routing harder: does
the agent still pick the target, and does the lift hold?

    paths = choose_decoys(skill_dir, 5, source=None, seed=0, warn=print)
    report = await run_sweep(settings, store, skill_dir, [0, 1, 5, 10, 20], ...)
    print(sweep_table(report)); json.dumps(report.model_dump(mode="json"))

Choice: the candidates are the skill folders in `source` (default: the target's parent
folder, i.e. the skills next to it), never the target itself (same folder or same name). They
are shuffled once with `seed` and taken in that order, so the choice is deterministic and a
larger count is a superset of a smaller one. A candidate staging would refuse (it names the
target or holds its description or files: the baseline would show the target) is skipped
with a message saying so; named decoys that leak are an error (`check_decoys`).

The sweep runs one paired run per count through the normal runner (each is a stored run) and
reports per count: the lift of `overall`, how the skill was used (cases where the agent
used it, skill_execution with the skill) and routing precision on each side (from the
skill_efficiency evidence), and wall time. The use figures are never a lift: the baseline
cannot pick the target, so their with-minus-base difference is fixed by construction.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field
from rich.table import Table

from sessions.store import RunStore
from skillforge.lift.compute import lift_for_run
from skillforge.models.config import Settings
from skillforge.models.trial import RunSpec
from skillforge.sandbox.skill_tree import SkillTree, SkillTreeError, read_skill_tree
from skillforge.models.stage import TrialStage, VisibleSkill
from skillforge.trials.staging import StagingError, find_leaks, load_skill_set

Warn = Callable[[str], None]


class DecoyError(ValueError):
    """Decoys cannot be chosen or used as asked; the message names the skill and the fix."""


def leak_reasons(target: SkillTree, decoy: SkillTree) -> list[str]:
    """Why staging would refuse `decoy` beside `target` in the baseline (empty: it would not)."""
    stage = TrialStage(case_id="decoys", condition="baseline", skills=[VisibleSkill(
        name=decoy.name, description=decoy.description, path="", role="decoy")])
    return find_leaks(target, [(decoy, "decoy")], {}, stage)


def skill_folders(source: Path) -> list[Path]:
    """The folders directly under `source` holding a SKILL.md, sorted by path."""
    if not source.is_dir():
        raise DecoyError(f"decoy folder {source} does not exist; give --decoys-from a folder "
                         "of skill folders")
    return sorted(p for p in source.iterdir() if p.is_dir() and (p / "SKILL.md").is_file())


def choose_decoys(skill_dir: Path | str, count: int, *, source: Path | str | None = None,
                  seed: int = 0, exclude: Sequence[str] = (),
                  warn: Warn | None = None) -> list[str]:
    """`count` decoy skill folders for the skill at `skill_dir` (see the module docstring)."""
    root = Path(skill_dir).resolve()
    if count < 0:
        raise DecoyError(f"--decoys {count}: give a number of decoys, 0 or more")
    try:
        target = read_skill_tree(root)
    except SkillTreeError as exc:
        raise DecoyError(f"the skill under test: {exc}") from exc
    folder = Path(source).expanduser().resolve() if source else root.parent
    skip = {root, *(Path(p).expanduser().resolve() for p in exclude)}
    candidates = [p.resolve() for p in skill_folders(folder) if p.resolve() not in skip]
    if count == 0:
        return []
    order = list(candidates)
    random.Random(seed).shuffle(order)
    chosen: list[str] = []
    names = {target.name}
    skipped: list[str] = []
    for path in order:
        if len(chosen) == count:
            break
        try:
            tree = read_skill_tree(path)
        except SkillTreeError as exc:
            skipped.append(f"{path.name}: {exc}")
            continue
        if tree.name in names:
            what = "the skill under test" if tree.name == target.name else "another decoy"
            skipped.append(f"{path.name}: it is named {tree.name!r} like {what}")
            continue
        leaks = leak_reasons(target, tree)
        if leaks:
            skipped.append(f"{path.name}: staging refuses it, the baseline would show "
                           f"{target.name} ({'; '.join(leaks[:2])})")
            continue
        names.add(tree.name)
        chosen.append(str(path))
    if warn is not None:
        for note in skipped:
            warn(f"decoy candidate skipped: {note}")
    if len(chosen) < count:
        raise DecoyError(
            f"only {len(chosen)} usable decoy skill(s) in {folder} besides {target.name}, "
            f"{count} asked for" + (f" ({len(skipped)} skipped, see the warnings)"
                                    if skipped else "")
            + "; ask for fewer, or give --decoys-from a folder with more skills")
    return chosen


def check_decoys(spec: RunSpec) -> None:
    """Refuse a spec whose decoy or support skills staging would refuse, saying which and why."""
    if not (spec.decoy_skills or spec.support_skills) or spec.workspace != "group":
        return
    try:
        skills = load_skill_set(spec)
    except StagingError as exc:
        raise DecoyError(str(exc)) from exc
    problems = []
    for role, trees in (("decoy", skills.decoys), ("support", skills.support)):
        for tree in trees:
            leaks = leak_reasons(skills.target, tree)
            if leaks:
                problems.append(f"{role} skill {tree.name} ({tree.source}): "
                                + "; ".join(leaks[:3]))
    if problems:
        raise DecoyError(
            f"staging refuses these skills: the baseline condition would show the skill under "
            f"test ({skills.target.name}): " + " | ".join(problems)
            + ". Remove the mention from them, or use other decoys (--decoys-from, "
              "[trial] decoy_skills).")


# --- the sweep ------------------------------------------------------------------------------

class SweepPoint(BaseModel):
    """One decoy count of a sweep: its paired run and what routing stress did to the lift."""

    decoys: int
    decoy_skills: list[str] = Field(default_factory=list)
    run_id: str
    status: str
    trials: int = 0
    ok: int = 0
    lift_overall: float | None = None
    ci_overall: tuple[float, float] | None = None
    # How the skill was used with it (never a lift): cases where the agent used it, of the
    # positive cases, and the with-skill mean of skill_execution.
    used: str | None = None
    skill_execution_with: float | None = None
    routing_with: float | None = None
    routing_base: float | None = None
    wall_s: float = 0.0  # the paired run, start to end
    mean_trial_wall_s: float | None = None


class SweepReport(BaseModel):
    """`skillforge trial --sweep-decoys ... --format json`."""

    skill: str | None = None
    agent: str | None = None
    model: str | None = None
    seed: int = 0
    decoys_from: str | None = None
    counts: list[int] = Field(default_factory=list)
    points: list[SweepPoint] = Field(default_factory=list)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def routing_precision(store: RunStore, run_id: str) -> tuple[float | None, float | None]:
    """(with, base) of routing precision: per case the mean over attempts, then the mean
    over cases."""
    by_case: dict[tuple[str, str], list[float]] = {}
    for rec in store.metrics(run_id):
        ev = rec.evidence if rec.metric == "skill_efficiency" else None
        value = (ev.get("routing_precision") or {}).get("value") if isinstance(ev, dict) \
            else None
        if isinstance(value, (int, float)):
            by_case.setdefault((rec.case_id, rec.condition), []).append(float(value))
    per = {key: sum(v) / len(v) for key, v in by_case.items()}
    with_ = [v for (_c, cond), v in per.items() if cond == "with_skill"]
    base = [v for (_c, cond), v in per.items() if cond == "baseline"]
    return _mean(with_), _mean(base)


def sweep_point(store: RunStore, run_id: str, status: str, count: int, decoys: Sequence[str],
                wall_s: float, ci: str = "bounded") -> SweepPoint:
    """The figures of one finished paired run of the sweep."""
    run = store.run(run_id)
    trials = store.trials(run_id)
    point = SweepPoint(decoys=count, decoy_skills=[Path(p).name for p in decoys],
                       run_id=run_id, status=status, trials=len(trials),
                       ok=sum(1 for t in trials if t.status == "ok"), wall_s=round(wall_s, 3),
                       mean_trial_wall_s=_round(_mean([t.wall_s for t in trials])))
    if run is not None and {"with_skill", "baseline"} <= {t.condition for t in trials}:
        lift = lift_for_run(run, trials, ci=ci)  # type: ignore[arg-type]
        row = lift.metrics.get("overall")
        if row is not None:
            point.lift_overall = _round(row.lift)
            if row.ci_low is not None and row.ci_high is not None:
                point.ci_overall = (round(row.ci_low, 6), round(row.ci_high, 6))
        use = lift.extra.use
        if use is not None:
            point.used = f"{use.used}/{use.cases}" if use.cases else None
            point.skill_execution_with = _round(
                use.metrics.get("skill_execution", {}).get("with"))
    point.routing_with, point.routing_base = map(_round, routing_precision(store, run_id))
    return point


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def parse_counts(text: str) -> list[int]:
    """"0,5,10" -> [0, 5, 10] (unique, in the order given); DecoyError on anything else."""
    counts: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit():
            raise DecoyError(f"--sweep-decoys {text!r}: give counts of decoys separated by "
                             "commas, e.g. 0,1,5,10")
        if int(part) not in counts:
            counts.append(int(part))
    if not counts:
        raise DecoyError("--sweep-decoys: give at least one count, e.g. 0,5")
    return counts


async def run_sweep(settings: Settings, store: RunStore, skill_dir: Path, counts: Sequence[int],
                    *, overrides: Mapping[str, Any] | None = None,
                    source: Path | str | None = None, seed: int = 0, judge: bool = True,
                    judge_models: Sequence[str] = (), ci: str = "bounded",
                    on_event: Callable[[Any], None] | None = None, warn: Warn | None = None,
                    on_point: Callable[[SweepPoint], None] | None = None) -> SweepReport:
    """One paired run per decoy count (nested choices), then the per-count figures.

    `overrides` are the other trial options (cases, attempts, image...); `decoy_skills` and
    `workspace` are set per count. Raises DecoyError, and whatever prepare_runner / the run
    raise (RunError, TrialConfigError, SandboxUnavailable, ProviderNotConfigured).
    """
    from skillforge.providers import aclose
    from skillforge.trials.config import build_run_spec, check_harness, resolve_skill_paths
    from skillforge.trials.setup import prepare_runner

    base = dict(overrides or {})
    check_harness(build_run_spec(skill_dir, settings, base))
    exclude = resolve_skill_paths(list(settings.trial.support_skills), Path(skill_dir))
    pool = choose_decoys(skill_dir, max(counts), source=source, seed=seed, exclude=exclude,
                         warn=warn)
    report = SweepReport(seed=seed, counts=list(counts),
                         decoys_from=str(Path(source).resolve()) if source else
                         str(Path(skill_dir).resolve().parent))
    for count in counts:
        chosen = pool[:count]
        runner = prepare_runner(settings, store, skill_dir=skill_dir,
                                overrides={**base, "decoy_skills": chosen,
                                           "workspace": "group"},
                                judge=judge, judge_models=judge_models, on_event=on_event,
                                warn=warn)
        check_harness(runner.spec)
        check_decoys(runner.spec)
        t0 = time.monotonic()
        try:
            summary = await runner.run()
        finally:
            for client in {id(c): c for c in [runner.client, *runner.judges]}.values():
                await aclose(client)
        point = sweep_point(store, summary.run_id, summary.status, count, chosen,
                            time.monotonic() - t0, ci)
        report.points.append(point)
        run = store.run(summary.run_id)
        report.skill = run.skill_name if run is not None else report.skill
        report.agent, report.model = runner.spec.agent, runner.spec.model
        if on_point is not None:
            on_point(point)
    return report


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def sweep_table(report: SweepReport) -> Table:
    """The sweep as a terminal table: one row per decoy count."""
    table = Table(title=f"Routing stress: {report.skill or ''} (decoys from "
                        f"{report.decoys_from}, seed {report.seed})",
                  box=None, padding=(0, 1), header_style="bold", show_edge=False,
                  title_justify="left", title_style="bold")
    for name in ("decoys", "lift overall", "95% CI", "used", "skill_exec with",
                 "routing with", "routing base", "trials ok", "wall s", "run"):
        table.add_column(name, justify="left" if name == "run" else "right", no_wrap=True)
    for p in report.points:
        ci = "-" if p.ci_overall is None else f"[{p.ci_overall[0]:+.3f}, {p.ci_overall[1]:+.3f}]"
        table.add_row(str(p.decoys), _num(p.lift_overall, True), ci,
                      p.used or "-", _num(p.skill_execution_with), _num(p.routing_with),
                      _num(p.routing_base), f"{p.ok}/{p.trials}",
                      f"{p.wall_s:.1f}", p.run_id)
    return table


def decoys_up_to(skill_dir: Path | str, count: int, *, source: Path | str | None = None,
                 seed: int = 0, exclude: Sequence[str] = (),
                 warn: Warn | None = None) -> list[str]:
    """Like `choose_decoys`, but settles for the usable skills there are when fewer than
    `count` (trigger evals: realistic competition from the skills next to the target), with
    a warning saying how many."""
    try:
        return choose_decoys(skill_dir, count, source=source, seed=seed, exclude=exclude,
                             warn=warn)
    except DecoyError as exc:
        if not str(exc).startswith("only "):
            raise
    folder = Path(source).expanduser().resolve() if source else Path(skill_dir).resolve().parent
    root = Path(skill_dir).resolve()
    candidates = [p for p in skill_folders(folder) if p.resolve() != root]
    for n in range(min(count, len(candidates)), -1, -1):
        try:
            chosen = choose_decoys(skill_dir, n, source=source, seed=seed, exclude=exclude)
        except DecoyError:
            continue
        if warn is not None:
            warn(f"{len(chosen)} usable decoy skill(s) in {folder}, {count} asked for; the "
                 "trigger trials use those (give --decoys-from a folder with more skills)")
        return chosen
    return []
